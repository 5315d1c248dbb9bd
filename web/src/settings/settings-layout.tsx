// /settings: the person's own account, one page per subject, with the list of subjects beside it.
import { SectionLayout } from '../ui/section-layout.tsx';

const SECTIONS = [
  { to: '/settings/profile', label: 'Profile and memories' },
  { to: '/settings/tokens', label: 'Tokens and connected apps' },
  { to: '/settings/security', label: 'Two-factor authentication' },
  { to: '/settings/workspaces', label: 'Workspaces' },
  { to: '/settings/disclaimers', label: 'Dismissed notes' },
];

export function SettingsLayout() {
  return <SectionLayout label="Settings" sections={SECTIONS} />;
}
