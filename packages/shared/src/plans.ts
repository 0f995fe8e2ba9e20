export const PLAN_FEATURES = [
  'useCampaigns',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export type PlanFlags = Record<PlanFeature, boolean>;

export const PLAN_LIMITS = ['users', 'connections', 'queues'] as const;
export type PlanLimit = (typeof PLAN_LIMITS)[number];
