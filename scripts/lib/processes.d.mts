export function webCommand(port: number | string, host?: string): [string, string[]];
export function tsCommand(file: string, args?: string[]): [string, string[]];
