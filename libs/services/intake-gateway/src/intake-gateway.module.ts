import { Module } from '@nestjs/common';
import { IntakeController } from './api/intake.controller';
import { Intake } from './application/intake';

/** Intake from every channel; today the API, later the inbound mail and chat webhooks. */
@Module({ controllers: [IntakeController], providers: [Intake] })
export class IntakeGatewayModule {}
