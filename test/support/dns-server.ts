/**
 * A DNS server on the loopback serving the test's own zones (the dns2
 * package), so checks of the firm's SPF, DKIM, DMARC and MX records run
 * against real DNS answers without the network.
 */
import type { AddressInfo } from "node:net";
import dns2 from "dns2";

const { Packet } = dns2;
/** "No such name" (the package's RCODE table is missing from its types). */
const NXDOMAIN = 3;

export interface ZoneRecords {
  /** Each TXT record as its text; one longer than 255 octets is split into strings, as DNS requires. */
  TXT?: string[];
  MX?: { exchange: string; priority: number }[];
}

export interface TestDns {
  /** For a resolver's setServers (and DNS_SERVERS): 127.0.0.1:<port>. */
  server: string;
  close(): Promise<void>;
}

/** DNS character-strings hold at most 255 octets each. */
function characterStrings(text: string): string[] {
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += 255) parts.push(text.slice(start, start + 255));
  return parts;
}

export async function startDns(zones: Record<string, ZoneRecords>): Promise<TestDns> {
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? "").toLowerCase();
      const zone = zones[name];
      if (!question || !zone) response.header.rcode = NXDOMAIN;
      else if (question.type === Packet.TYPE.TXT) {
        for (const text of zone.TXT ?? []) {
          response.answers.push(
            Packet.createResourceFromQuestion(question, { ttl: 60, data: characterStrings(text) }),
          );
        }
      } else if (question.type === Packet.TYPE.MX) {
        for (const { exchange, priority } of zone.MX ?? []) {
          response.answers.push(
            Packet.createResourceFromQuestion(question, { ttl: 60, exchange, priority }),
          );
        }
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  const { port } = (addresses?.udp ?? server.addresses().udp) as AddressInfo;
  return { server: `127.0.0.1:${port}`, close: () => server.close() };
}
