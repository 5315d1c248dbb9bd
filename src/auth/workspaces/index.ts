// Workspace administration (issue 35): admins of a base organization create, rename and remove its
// workspaces and choose their members. Listing and switching for members live in account/workspaces.ts.
export { listOrgWorkspaces } from './list-org-workspaces.ts';
export { createWorkspace } from './create-workspace.ts';
export { renameWorkspace } from './rename-workspace.ts';
export { deleteWorkspace } from './delete-workspace.ts';
export { listWorkspaceMembers } from './workspace-members.ts';
export { setWorkspaceMember } from './set-workspace-member.ts';
export { removeWorkspaceMember } from './remove-workspace-member.ts';
export { workspacesOf, WorkspaceNotFound, WorkspaceNameTaken, type WorkspaceView, type WorkspaceMemberView } from './workspace-rows.ts';
