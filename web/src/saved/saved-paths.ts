/** The page of one saved question. */
export const savedPath = (id: string) => `/saved/${encodeURIComponent(id)}`;
