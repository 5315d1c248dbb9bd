export { buildCliBundle, CLI_PLATFORMS } from './cli-build.ts';
export { skillDocument, skillArchive } from './skill.ts';
export { createHelpIndex, loadHelpSections } from './help.ts';
export type { HelpAnswer, HelpSection } from './help.ts';
