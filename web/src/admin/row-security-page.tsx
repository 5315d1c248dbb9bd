// /admin/row-security: who sees which rows. The filters written in the table documentation, the
// groups they name, and a preview of what a chosen member would see. Members' attributes are set
// on the Members page; the server enforces all of it, the page only shows and edits.
import { useDocumentTitle } from '../ui/document-title.ts';
import { useMembers } from './member-picker.tsx';
import { GroupsSection } from './row-security-groups.tsx';
import { RowFilterList } from './row-security-filters.tsx';
import { RowSecurityPreview } from './row-security-preview.tsx';

export function RowSecurityPage() {
  useDocumentTitle('Row security');
  const members = useMembers();
  return (
    <>
      <h1>Row security</h1>
      <RowSecurityPreview members={members} />
      <RowFilterList />
      <GroupsSection members={members} />
    </>
  );
}
