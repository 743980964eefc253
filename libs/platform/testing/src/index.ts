export * from './wait-for';
export * from './event-probe';
export * from './infrastructure';
export * from './host-config';
export * from './step-service';
export * from './mail-server';
export * from './slack-stand-in';
export * from './ports';
