export function routeFiles(): [urlPath: string, modulePath: string][];
export function renderRouteModules(): string;
