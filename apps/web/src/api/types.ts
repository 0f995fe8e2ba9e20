import type { AllTicket, PlanFlags, Profile } from '@atende/shared';

export interface SessionUser {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  allTicket: AllTicket;
  language: 'pt' | 'en' | 'es' | null;
  whatsappId: number | null;
  companyId: number;
  queues: { id: number; name: string; color: string }[];
  company?: {
    id: number;
    name: string;
    dueDate: string | null;
    status: boolean;
    /** IANA name; schedules are typed and shown in it. */
    timezone?: string;
    settings: { key: string; value: string }[];
    plan: PlanFlags & { id: number; name: string; users: number; connections: number; queues: number; value: number };
  };
}
