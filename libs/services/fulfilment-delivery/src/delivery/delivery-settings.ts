import type { Provider } from '@nestjs/common';
import { z } from 'zod';

/** Wrong tokens a step-up challenge takes before it is locked, unless configured otherwise. */
export const DEFAULT_STEP_UP_MAX_FAILURES = 5;

/** Delivery's settings (README configuration table), shared by the fulfilment-delivery app and the embedded runner. */
export const deliveryFields = {
  /** Wrong tokens per step-up challenge before it is locked (403 SVC-BE-1215) until a new challenge is issued. */
  STEP_UP_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(DEFAULT_STEP_UP_MAX_FAILURES),
};

export interface DeliveryConfig {
  STEP_UP_MAX_FAILURES: number;
}

export interface DeliverySettings {
  /** Pinned on each challenge when it is issued: a change applies to the challenges issued after it. */
  stepUpMaxFailures: number;
}

export const DELIVERY_SETTINGS = Symbol('DELIVERY_SETTINGS');

/** The settings from configuration; absent values take the documented defaults. */
export function deliverySettingsFrom(config: Partial<DeliveryConfig>): DeliverySettings {
  return { stepUpMaxFailures: config.STEP_UP_MAX_FAILURES ?? DEFAULT_STEP_UP_MAX_FAILURES };
}

/** The provider of delivery's settings, for the settings list of `fulfilmentDeliveryServiceWith`. */
export function deliverySettingsProvider(config: Partial<DeliveryConfig>): Provider {
  return { provide: DELIVERY_SETTINGS, useValue: deliverySettingsFrom(config) };
}
