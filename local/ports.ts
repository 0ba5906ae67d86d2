import { createServer } from 'node:net';

/** A port npm start needs, by the variable that sets it. */
export interface NamedPort {
  name: string;
  port: number;
}

/** Whether nothing listens on the port: listening there (all interfaces, as the API server does) succeeds. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', () => resolve(false));
    probe.listen({ port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/**
 * What is wrong with the ports npm start is about to use, one message per problem (empty when all are
 * usable): not a port number, the same port twice, or a port something already listens on. Checked
 * before anything starts, so a taken port costs no DynamoDB Local start, no seeding, no printed key.
 */
export async function portProblems(ports: readonly NamedPort[]): Promise<string[]> {
  const problems: string[] = [];
  const seen = new Map<number, string>();
  for (const { name, port } of ports) {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      problems.push(`${name} must be a port number from 1 to 65535 (got ${JSON.stringify(process.env[name] ?? String(port))}).`);
      continue;
    }
    const other = seen.get(port);
    if (other) {
      problems.push(`${name} and ${other} are both ${port}: they must differ.`);
      continue;
    }
    seen.set(port, name);
    if (!(await portFree(port)))
      problems.push(
        `${name} ${port} is already in use (another npm start, DynamoDB Local or some other program listens there): stop it, or choose another port, e.g. ${name}=${port + 1} npm start.`,
      );
  }
  return problems;
}
