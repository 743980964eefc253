import { Module } from '@nestjs/common';

/** The intake-gateway service module; its use cases arrive with their issues. */
@Module({})
export class IntakeGatewayModule {}
