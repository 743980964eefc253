import type { Provider } from '@nestjs/common';
import { z } from 'zod';

/** Wrong tokens a step-up challenge takes before it is locked, unless configured otherwise. */
export const DEFAULT_STEP_UP_MAX_FAILURES = 5;
/** Refused downloads per caller and request in an hour before the next ones are answered 429, unless configured otherwise. */
export const DEFAULT_DOWNLOAD_REFUSALS_PER_HOUR = 10;

/** Delivery's settings (README configuration table), shared by the fulfilment-delivery app and the embedded runner. */
export const deliveryFields = {
  /** Wrong tokens per step-up challenge before it is locked (403 SVC-BE-1215) until a new challenge is issued. */
  STEP_UP_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(DEFAULT_STEP_UP_MAX_FAILURES),
  /** Refused downloads a caller gets per request in an hour; the ones after it are answered 429 and only counted. */
  DOWNLOAD_REFUSALS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(DEFAULT_DOWNLOAD_REFUSALS_PER_HOUR),
};

export interface DeliveryConfig {
  STEP_UP_MAX_FAILURES: number;
  DOWNLOAD_REFUSALS_PER_HOUR: number;
}

export interface DeliverySettings {
  /** Pinned on each challenge when it is issued: a change applies to the challenges issued after it. */
  stepUpMaxFailures: number;
  /** Counted per caller and request in each replica's memory, in a fixed hour from the first refusal. */
  downloadRefusalsPerHour: number;
}

export const DELIVERY_SETTINGS = Symbol('DELIVERY_SETTINGS');

/** The settings from configuration; absent values take the documented defaults. */
export function deliverySettingsFrom(config: Partial<DeliveryConfig>): DeliverySettings {
  return {
    stepUpMaxFailures: config.STEP_UP_MAX_FAILURES ?? DEFAULT_STEP_UP_MAX_FAILURES,
    downloadRefusalsPerHour: config.DOWNLOAD_REFUSALS_PER_HOUR ?? DEFAULT_DOWNLOAD_REFUSALS_PER_HOUR,
  };
}

/** The provider of delivery's settings, for the settings list of `fulfilmentDeliveryServiceWith`. */
export function deliverySettingsProvider(config: Partial<DeliveryConfig>): Provider {
  return { provide: DELIVERY_SETTINGS, useValue: deliverySettingsFrom(config) };
}
