/** The page of one dashboard. */
export const dashboardPath = (id: string) => `/dashboards/${encodeURIComponent(id)}`;
