import { meetsRouteRole, routeKey, routeRole } from '@atende/shared';
import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import { AppError } from './app-error.js';

/**
 * Gives every private route registered in `scope` the role gate of the shared
 * table `ROUTE_ROLES` (packages/shared/src/route-roles.ts), before its body is
 * validated: a caller without the role learns nothing about the payload. Finer
 * rules (own record, ticket visibility, plan flags) stay in the services. A route
 * the table does not know gets no gate here; the role matrix suite fails on it.
 */
export function guardRoutesByRole(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const role = routeRole(routeKey(methods[0] ?? 'GET', route.url ?? route.path));
    if (role !== 'admin' && role !== 'super') return;
    const gate = async (request: FastifyRequest) => {
      if (!meetsRouteRole(request.ctx.user, role)) throw new AppError('ERR_NO_PERMISSION');
    };
    const existing = route.preValidation === undefined ? [] : Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation];
    route.preValidation = [gate as preValidationHookHandler, ...existing];
  });
}
