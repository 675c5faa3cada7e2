// The dashboard, loaded from the manager's sources at run time. The manager's public index does not export
// it yet, and a static import would pull apps/controller-manager's files into this package's TypeScript
// program (outside its rootDir). The types below mirror apps/controller-manager/src/dashboard/status.ts;
// once `@warmstart/controller-manager` exports the dashboard, import from it and delete this file.
import { fileURLToPath } from 'node:url';

export interface InformerStatusLike {
  readonly cluster: string;
  readonly resource: string;
  readonly state: 'pending' | 'open' | 'failed';
  readonly objects: number;
  readonly listRatePerSecond: number | undefined;
  readonly waitingMs: number;
  readonly progress: string | undefined;
  readonly error: string | undefined;
}

export interface ControllerStatusLike {
  readonly name: string;
  readonly queueDepth: number;
  readonly inFlight: number;
  readonly readerWaits: number;
  readonly lastError: Readonly<{ key: string; message: string; at: number }> | undefined;
  readonly waitingFor: string | undefined;
}

export interface DashboardStatusLike {
  readonly strategy: string;
  readonly startedAt: number;
  readonly now: number;
  readonly leader: Readonly<{ identity: string; leading: boolean; holder: string | undefined }>;
  readonly directReads: number;
  readonly ready: boolean;
  readonly informers: readonly InformerStatusLike[];
  readonly controllers: readonly ControllerStatusLike[];
}

export interface StatusSourceLike {
  snapshot(): DashboardStatusLike;
  onChange?(listener: () => void): () => void;
}

export interface DashboardServerLike {
  readonly url: string;
  close(): Promise<void>;
}

export interface DashboardModule {
  listenDashboard(options: {
    readonly source: StatusSourceLike;
    readonly port: number;
    readonly host?: string;
    readonly minIntervalMs?: number;
  }): Promise<DashboardServerLike>;
}

const SOURCE = fileURLToPath(
  new URL('../../../apps/controller-manager/src/dashboard/index.ts', import.meta.url),
);

/** Imports apps/controller-manager/src/dashboard/index.ts. */
export async function loadDashboard(): Promise<DashboardModule> {
  return (await import(SOURCE)) as DashboardModule;
}
