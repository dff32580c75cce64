import dns2 from 'dns2';

const { Packet } = dns2;

/**
 * A real DNS server on loopback (UDP, a free port) answering TXT queries from a table the test fills:
 * the answer the product's resolver gets through DNS_SERVERS. A name not in the table is NXDOMAIN;
 * `failing` answers SERVFAIL to everything, as a broken upstream would.
 */
export interface TestDnsServer {
  /** For DNS_SERVERS: `127.0.0.1:PORT`. */
  address: string;
  /** Publishes TXT records at `name` (each record a list of character strings); [] leaves the name without TXT. */
  setTxt(name: string, records: string[][]): void;
  removeTxt(name: string): void;
  failing: boolean;
  /** TXT queries answered so far, by name. */
  queries: string[];
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, string[][]>();
  const queries: string[] = [];
  const state = { failing: false };
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase();
      queries.push(name);
      const records = zone.get(name);
      if (state.failing) response.header.rcode = Packet.RCODE.SERVFAIL;
      else if (!records) response.header.rcode = Packet.RCODE.NXDOMAIN;
      else if (question.type === Packet.TYPE.TXT)
        for (const data of records) {
          // dns2 encodes plain records (its README's way); its typings ask for a decoded Resource's toBuffer too.
          const answer = { name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data };
          response.answers.push(answer as unknown as (typeof response.answers)[number]);
        }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return {
    address: `127.0.0.1:${addresses.udp!.port}`,
    setTxt: (name, records) => zone.set(name.toLowerCase(), records),
    removeTxt: (name) => zone.delete(name.toLowerCase()),
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    queries,
    close: () => server.close(),
  };
}
