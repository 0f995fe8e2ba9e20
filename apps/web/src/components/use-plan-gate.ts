import { can, type PlanFeature } from '@atende/shared';
import i18next from 'i18next';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../api/session';
import { toastError } from './toast';

/** Spec part 2 §9: the redirect after a refused page waits 1 second. */
export const PLAN_REDIRECT_MS = 1000;

/**
 * Pages a plan flag switches on (prompts: useOpenAi, integrations:
 * useIntegrations; spec part 2 §4, §6): without the flag the company is told it
 * has no permission and sent to / after a second. The pages are also admin-only
 * on the server, so a user gets the no-permission error the same way. Returns
 * whether the page may load its data (nothing is requested before).
 */
export function usePlanGate(feature: PlanFeature): boolean {
  const navigate = useNavigate();
  const { user } = useSession();
  const planAllows = Boolean(user?.company?.plan[feature]);
  const admin = user ? can(user, 'drawer-admin-items:view') : false;
  const allowed = planAllows && admin;

  const signedIn = user !== null;
  // One toast per visit, even when development mode runs the effect twice.
  const told = useRef(false);

  useEffect(() => {
    if (!signedIn || allowed) return;
    if (!told.current) {
      told.current = true;
      // i18next directly: a language switch must not toast a second time.
      toastError(new Error(planAllows ? i18next.t('errors.ERR_NO_PERMISSION') : i18next.t('prompts.planDenied')));
    }
    const timer = setTimeout(() => void navigate('/'), PLAN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [signedIn, allowed, planAllows, navigate]);

  return allowed;
}
