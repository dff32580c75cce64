import type { IncomingMessage, ServerResponse } from 'node:http';
import { MetricsService } from './metrics.service';

type RoutedRequest = IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };

/**
 * Counts and times a finished HTTP response under its route pattern: the request log calls it from its one
 * listener on the response's end (requestLogging), so that the metrics add neither a middleware nor a
 * listener of their own to each request.
 */
export function httpMetrics(metrics: MetricsService) {
  return (req: RoutedRequest, res: ServerResponse, seconds: number): void => {
    // A response cut off before its end (the client went away) is not one the route answered.
    if (!res.writableFinished) return;
    // The pattern (`/api/users/:id`), never the path: ids in label values would grow without bound.
    const pattern = req.route?.path;
    const route =
      typeof pattern === 'string' ? `${req.baseUrl ?? ''}${pattern}` : res.statusCode === 404 ? 'unmatched' : 'other';
    metrics.observeHttp(req.method ?? 'GET', route, res.statusCode, seconds);
  };
}
