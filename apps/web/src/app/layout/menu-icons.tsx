import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AllInboxIcon from '@mui/icons-material/AllInbox';
import AnnouncementIcon from '@mui/icons-material/Announcement';
import HistoryIcon from '@mui/icons-material/History';
import ApiIcon from '@mui/icons-material/Api';
import AttachMoneyIcon from '@mui/icons-material/AttachMoney';
import CardMembershipIcon from '@mui/icons-material/CardMembership';
import CampaignIcon from '@mui/icons-material/Campaign';
import ChecklistIcon from '@mui/icons-material/Checklist';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DashboardIcon from '@mui/icons-material/Dashboard';
import EventIcon from '@mui/icons-material/Event';
import FlashOnIcon from '@mui/icons-material/FlashOn';
import ForumIcon from '@mui/icons-material/Forum';
import HelpOutlinedIcon from '@mui/icons-material/HelpOutlined';
import ListAltIcon from '@mui/icons-material/ListAlt';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import PeopleIcon from '@mui/icons-material/People';
import PsychologyIcon from '@mui/icons-material/Psychology';
import SettingsIcon from '@mui/icons-material/Settings';
import SettingsSuggestIcon from '@mui/icons-material/SettingsSuggest';
import SyncAltIcon from '@mui/icons-material/SyncAlt';
import ViewKanbanIcon from '@mui/icons-material/ViewKanban';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import FolderIcon from '@mui/icons-material/Folder';
import ChatIcon from '@mui/icons-material/Chat';
import type { ReactElement } from 'react';

/** One icon per side-menu item (keys of MENU_ITEMS in packages/shared). */
export const MENU_ICONS: Record<string, ReactElement> = {
  dashboard: <DashboardIcon />,
  tickets: <WhatsAppIcon />,
  kanban: <ViewKanbanIcon />,
  quickMessages: <FlashOnIcon />,
  todolist: <ChecklistIcon />,
  contacts: <ContactPhoneIcon />,
  schedules: <EventIcon />,
  tags: <LocalOfferIcon />,
  chats: <ForumIcon />,
  helps: <HelpOutlinedIcon />,
  campaigns: <CampaignIcon />,
  contactLists: <ListAltIcon />,
  campaignsConfig: <SettingsSuggestIcon />,
  announcements: <AnnouncementIcon />,
  prompts: <PsychologyIcon />,
  queueIntegration: <SyncAltIcon />,
  connections: <ChatIcon />,
  files: <FolderIcon />,
  queues: <AccountTreeIcon />,
  users: <PeopleIcon />,
  messagesApi: <ApiIcon />,
  financeiro: <AttachMoneyIcon />,
  subscription: <CardMembershipIcon />,
  settings: <SettingsIcon />,
  auditLogs: <HistoryIcon />,
  fallback: <AllInboxIcon />,
};
