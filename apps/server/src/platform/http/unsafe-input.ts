import { validationText } from '@atende/shared';
import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import { findInputProblem, stripUnsafeDeep } from '../text/unsafe-text.js';
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
 * gate. A route whose body is a provider's message (`config.providerText`, the
 * sandbox phone) has those characters removed from its body instead, as the
 * inbound normalisation does for every provider.
 */
export function refuseUnsafeInput(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const providerText = route.config?.providerText === true;
    const check = async (request: FastifyRequest) => {
      // A provider's message keeps every character it can: the unsafe ones are removed, not refused.
      if (providerText && request.body !== null && typeof request.body === 'object') request.body = stripUnsafeDeep(request.body);
      for (const [part, read] of PARTS) {
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
    /** The body is a provider's message (the sandbox phone): unsafe text in it is removed, not refused. */
    providerText?: boolean;
  }
}
