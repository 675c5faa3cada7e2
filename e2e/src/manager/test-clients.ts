// client-node API clients for a test's own (admin) checks of a cluster, and the 404 test they need.
import { AppsV1Api, CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';

export function client(kubeconfig: string): { apps: AppsV1Api; core: CoreV1Api; custom: CustomObjectsApi } {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  return {
    apps: kc.makeApiClient(AppsV1Api),
    core: kc.makeApiClient(CoreV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
  };
}

export const notFound = (e: unknown): boolean => (e as { code?: number }).code === 404;
