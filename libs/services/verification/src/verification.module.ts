import { Module } from '@nestjs/common';

/** The verification service module; its use cases arrive with their issues. */
@Module({})
export class VerificationModule {}
