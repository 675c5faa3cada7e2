export { type TurnMeter, turnMeter } from './turn-meter.js';
