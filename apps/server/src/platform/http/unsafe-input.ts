import { validationText } from '@atende/shared';
import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import { findInputProblem } from '../text/unsafe-text.js';
import { AppError } from './app-error.js';

const PARTS = [
  ['params', (request: FastifyRequest) => request.params],
  ['querystring', (request: FastifyRequest) => request.query],
  ['body', (request: FastifyRequest) => request.body],
] as const;

/**
 * Refuses, on every route, input that PostgreSQL cannot store or that no schema
 * should have to think about: NUL and unpaired surrogates in any string (path
 * parameter, query parameter, body value or key, at any depth) and bodies nested
 * deeper than `MAX_INPUT_DEPTH`. Answers 400 in the validation shape with the
 * field named, before the route's own schema runs (so it holds for routes that
 * parse by hand too). Added last to each route's preValidation, after the role
 * gate. A route whose body is a provider's message (`config.providerText`) keeps
 * its body: the inbound normalisation strips those characters instead.
 */
export function refuseUnsafeInput(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const providerText = route.config?.providerText === true;
    const check = async (request: FastifyRequest) => {
      for (const [part, read] of PARTS) {
        if (part === 'body' && providerText) continue;
        const problem = findInputProblem(read(request));
        if (!problem) continue;
        const field = problem.path.length > 0 ? problem.path.join('.') : part;
        const message = problem.kind === 'tooDeep' ? `Nested deeper than allowed` : validationText('validation.invalidText');
        throw new AppError('ERR_VALIDATION', 400, { message: `Invalid ${part}`, fields: { [field]: [message] } });
      }
    };
    const existing = route.preValidation === undefined ? [] : Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation];
    route.preValidation = [...existing, check as preValidationHookHandler];
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body is a provider's message (the sandbox phone): unsafe text in it is stripped on ingest, not refused. */
    providerText?: boolean;
  }
}
