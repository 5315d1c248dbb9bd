export { memoryBus, type BusHandler, type BusSubscription, type MessageBus } from './message-bus.ts';
export { openRedisBus } from './redis-bus.ts';
