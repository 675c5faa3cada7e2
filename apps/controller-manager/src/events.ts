// The EventSink the controllers use: an EventRecorder per controller (see event-recorder.ts).
import type { EventSink } from '@warmstart/detector';
import type { WriteClient } from '@warmstart/runtime';
import { EventRecorder } from './event-recorder.js';
import type { Logger } from './logger.js';

export type { EventSink, EventSubject } from '@warmstart/detector';
export { EVENTS } from './event-recorder.js';

export function eventSink(writer: WriteClient, component: string, log: Logger): EventSink {
  return new EventRecorder({ writer, component, log }).sink;
}
