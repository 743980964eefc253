import { Module } from '@nestjs/common';

/** The notifier service module; its use cases arrive with their issues. */
@Module({})
export class NotifierModule {}
