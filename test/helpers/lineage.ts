// A lineage analysis that is not there, for tests of the answer when none is configured.
import { LineageUnavailable, type LineageFn } from '../../src/chats/index.ts';

export const noLineage: LineageFn = () => {
  throw new LineageUnavailable('Lineage analysis is not configured');
};
