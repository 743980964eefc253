import { Module } from '@nestjs/common';

/** The fulfilment-delivery service module; its use cases arrive with their issues. */
@Module({})
export class FulfilmentDeliveryModule {}
