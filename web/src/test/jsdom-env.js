// jsdom, plus the fetch classes of Node (jsdom has none): RTK Query's fetchBaseQuery builds a Request,
// and the tests replace `fetch` itself with a fake.
import JSDOMEnvironment from 'jest-environment-jsdom';

export default class JsdomWithFetch extends JSDOMEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of [
      'fetch',
      'Request',
      'Response',
      'Headers',
      'AbortController',
      'AbortSignal',
      'structuredClone',
      'TextEncoder',
      'TextDecoder',
      'ReadableStream',
    ]) {
      if (globalThis[name]) this.global[name] = globalThis[name];
    }
  }
}
