// Lets Node run this package's TypeScript sources directly: they import siblings as "./x.js" (NodeNext style),
// so a relative ".js" specifier that does not exist is retried as ".ts". Node strips the types itself.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (specifier.startsWith('.') && specifier.endsWith('.js')) {
        return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
      }
      throw error;
    }
  },
});
