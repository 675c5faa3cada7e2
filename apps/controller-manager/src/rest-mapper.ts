// The members' RESTMapper: informer-cache's, seeded with the well-known built-ins so applying a Deployment or
// a ConfigMap needs no discovery request.
import { BuiltinResources } from '@warmstart/api';
import { type ApiTransport, RestMapper as DiscoveryRestMapper } from '@warmstart/informer-cache';

export { UnknownKindError } from '@warmstart/informer-cache';

export class RestMapper extends DiscoveryRestMapper {
  constructor(cluster: string, transport: ApiTransport) {
    super(cluster, transport, Object.values(BuiltinResources));
  }
}
