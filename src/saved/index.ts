// Saved questions: an answer's SQL, connection, chart and knowledge commit kept under a title, run
// again under the viewer's permissions, with every edit kept as a version.
export { createQuestion, type NewQuestion } from './create-question.ts';
export { editQuestion, removeQuestion, type QuestionEdit } from './update-question.ts';
export { savedQuestions, savedQuestion, savedQuestionsById, questionVersions } from './read-questions.ts';
export { runQuestion } from './run-question.ts';
/** For seeding a demo's questions under fixed ids (src/compose/demo). */
export { findQuestion, insertQuestion } from './questions-store.ts';
/** What names a connection, shown before an admin deletes it (src/compose/connection-dependants.ts). */
export { questionsOnConnection } from './questions-store.ts';
export type { SavedDeps } from './deps.ts';
export type { SavedPorts, AnswerRef, AnswerToSave, GovernedRows } from './ports.ts';
export * from './errors.ts';
export * from './schemas.ts';
