export { createOutbound, type Outbound, type OutboundOptions } from './create-outbound.ts';
export { isAddressOrCidr } from './allow-list.ts';
export { OutboundFailed } from './send-request.ts';
export type { OutboundFetch } from './guarded-fetch.ts';
export { createHostCheck, type CheckHost } from './check-host.ts';
export { parseAllowList } from './allow-list.ts';
