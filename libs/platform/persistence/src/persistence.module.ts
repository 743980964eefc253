import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { dataSourceOptions, type DatabaseSettings, type MigrationPolicy, openDataSource } from './data-source';
import { UnitOfWork } from './unit-of-work';

export interface PersistenceModuleOptions {
  settings: DatabaseSettings;
  migrations: MigrationPolicy;
  /** How often to retry the first connection (the database may start after the service). */
  connectRetries?: number;
}

@Global()
@Module({})
export class PersistenceModule {
  static forRoot(options: PersistenceModuleOptions): DynamicModule {
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: async () => ({
            ...(await dataSourceOptions(options.settings)),
            retryAttempts: options.connectRetries ?? 3,
            retryDelay: 1000,
            // The health endpoint reports a lost database; do not crash on it.
            manualInitialization: false,
          }),
          dataSourceFactory: async (dsOptions) => {
            if (!dsOptions) throw new Error('TypeORM passed no DataSource options');
            return openDataSource(dsOptions, options.migrations);
          },
        }),
      ],
      providers: [{ provide: UnitOfWork, inject: [DataSource], useFactory: (ds: DataSource) => new UnitOfWork(ds) }],
      exports: [UnitOfWork],
    };
  }
}
