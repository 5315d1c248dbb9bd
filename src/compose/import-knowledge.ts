// The import domain's KnowledgePort, answered by knowledge: environments, item checks and one commit.
import type { KnowledgePort } from '../imports/dbt/index.ts';
import { commitImportedFiles, createEnvironment, getEnvironment, importedFileOf, importedItemProblem, type KnowledgeDeps } from '../knowledge/index.ts';

/** The port over the knowledge domain. */
export function importKnowledgePort(knowledge: KnowledgeDeps): KnowledgePort {
  return {
    checkEnvironment: async (principal, environmentId) => {
      await getEnvironment(knowledge, principal, environmentId);
    },
    fileOf: (kind, doc, id) => importedFileOf(kind, doc, id),
    problemOf: (kind, path, doc) => importedItemProblem(kind, path, doc),
    // The name is made up from the project and the manifest's time: a second import of it is numbered.
    createEnvironment: async (principal, name) => (await createEnvironment(knowledge, principal, { name, color: '#ff694b' }, { numberIfTaken: true })).id,
    commit: (principal, environmentId, a) => commitImportedFiles(knowledge, principal, environmentId, a),
  };
}
