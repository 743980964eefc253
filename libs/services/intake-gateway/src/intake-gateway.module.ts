import { type DynamicModule, Module } from '@nestjs/common';
import { LifecycleClient } from '@dsar/platform/http';
import { IntakeController } from './api/intake.controller';
import { WebhooksController } from './api/webhooks.controller';
import { InboundIntake } from './application/inbound-intake';
import { InboundWebhooks } from './application/inbound-webhooks';
import { Intake } from './application/intake';
import { LANGUAGE_DETECTOR, loadLanguageDetector } from './domain/language/language-detector';
import { InboundStore } from './infrastructure/inbound-store';
import { WEBHOOK_SETTINGS, type WebhookSettings } from './webhook-settings';

/** Intake from every channel: the API, and the inbound mail and chat webhooks on the given settings. */
@Module({})
export class IntakeGatewayModule {
  static with(settings: WebhookSettings): DynamicModule {
    return {
      module: IntakeGatewayModule,
      controllers: [IntakeController, WebhooksController],
      providers: [
        { provide: WEBHOOK_SETTINGS, useValue: settings },
        // Loaded once, before the first message: reading a letter then stays synchronous.
        { provide: LANGUAGE_DETECTOR, useFactory: loadLanguageDetector },
        Intake,
        LifecycleClient,
        InboundStore,
        InboundIntake,
        InboundWebhooks,
      ],
    };
  }
}
