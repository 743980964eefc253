import type { ServiceDefinition } from '@dsar/platform/host';
import { InboundMessages1763700000700 } from './infrastructure/migrations/1763700000700-inbound-messages';
import { IntakeGatewayModule } from './intake-gateway.module';
import { type WebhookSettings, webhookSettingsFrom } from './webhook-settings';

export { IntakeGatewayModule } from './intake-gateway.module';
/** How the email provider signs a delivery (tests and relays sign with it). */
export { signDelivery, webhookSecretKey } from '@dsar/platform/http';
/** The letter reader behind the classifier, for tools that measure it (the read-letter benchmark). */
export { classifyMessage, type InboundText } from './domain/message-classifier';
export { loadLanguageDetector } from './domain/language/language-detector';
export { type InboundRoute, inboundRoutes, requireWebhookSettings, type WebhookConfig, webhookFields, type WebhookSettings, webhookSettingsFrom } from './webhook-settings';

/**
 * intake-gateway receives requests from every channel (the API, and email and chat through their providers' signed
 * webhooks) and hands them to lifecycle-clock; the webhooks run on the given settings.
 */
export function intakeGatewayServiceWith(settings: WebhookSettings): ServiceDefinition {
  return {
    name: 'intake-gateway',
    module: IntakeGatewayModule.with(settings),
    persistence: true,
    migrations: [InboundMessages1763700000700],
    calls: ['lifecycle-clock'],
  };
}

/** intake-gateway with its webhooks off (no secrets, no routes): the definition for migrations and tooling. */
export const intakeGatewayService: ServiceDefinition = intakeGatewayServiceWith(webhookSettingsFrom({}));
