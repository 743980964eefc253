import { Module } from '@nestjs/common';

/** The policy-registry service module; its use cases arrive with their issues. */
@Module({})
export class PolicyRegistryModule {}
