import { SignupBody } from '@atende/shared';
import { z } from 'zod';
import { ApiError } from '../../api/http-client';

/**
 * The shared sign-up schema with the plan as the select holds it (a string,
 * empty until chosen: "Obrigatório" rather than "not a number").
 */
export const SignupForm = SignupBody.extend({ planId: z.string().min(1, 'validation.required') });
export type SignupFormInput = z.input<typeof SignupForm>;
export type SignupFormValues = z.output<typeof SignupForm>;

export const SIGNUP_FIELDS = ['name', 'email', 'phone', 'password', 'planId'] as const;

/** A 400 ERR_VALIDATION names fields with message keys: the first message of each known field. */
export function serverFieldErrors(error: unknown): Partial<Record<(typeof SIGNUP_FIELDS)[number], string>> {
  if (!(error instanceof ApiError) || error.code !== 'ERR_VALIDATION') return {};
  const fields = error.data.fields;
  if (!fields || typeof fields !== 'object') return {};
  const found: Partial<Record<(typeof SIGNUP_FIELDS)[number], string>> = {};
  for (const name of SIGNUP_FIELDS) {
    const messages = (fields as Record<string, unknown>)[name];
    const first = Array.isArray(messages) ? messages[0] : messages;
    if (typeof first === 'string') found[name] = first;
  }
  return found;
}
