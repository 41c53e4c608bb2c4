/**
 * The ssh:// transport: an http.Agent whose connections are channels running
 * `docker system dial-stdio` on the remote host, over SSH logins that are kept and shared, and
 * kept alive between requests as HTTP/1.1 allows.
 *
 * Why not dockerode's own SSH transport: it logs in afresh for every HTTP request
 * (node_modules/docker-modem/lib/ssh.js makes a new ssh2 Client per request), and each login
 * starts the user's shell and a `docker` process on the remote host. On the 2-core test machine
 * that was 2.4 s for one `GET /info` (root's shell start-up files there run pyenv). Here a login
 * is made once; a channel (one remote `docker system dial-stdio`) carries one request after
 * another, as a keep-alive socket does; only requests at the same time open more channels.
 *
 * A login carries at most MAX_CHANNELS channels, below OpenSSH's default MaxSessions (10);
 * more requests at once open another login. A login with no request in flight stops holding the
 * process open at once (its socket is unref'd) and is closed after IDLE_MS, so a command that
 * is done exits as it did with one login per request.
 */
import { Agent, type AgentOptions, type ClientRequest } from "node:http";
import { connect as connectTcp, type Socket } from "node:net";
import { userInfo } from "node:os";
import type { Duplex } from "node:stream";
import { Client, type ConnectConfig } from "ssh2";

/** Channels open at once on one connection: below OpenSSH's default MaxSessions of 10. */
export const MAX_CHANNELS = 8;
/** How long a connection without channels is kept for the next request. */
export const IDLE_MS = 10_000;
/** A login that has not finished by then is a failed connection. */
const READY_TIMEOUT_MS = 20_000;
/** A channel the server has not opened by then is refused, and its login closed: a server that logs in and then stalls must not hang a call. */
export const CHANNEL_TIMEOUT_MS = 20_000;

export interface SshTarget {
  host: string;
  /** For tests: a shorter CHANNEL_TIMEOUT_MS. */
  channelTimeoutMs?: number;
  port: number;
  username?: string;
  /** The ssh-agent socket (SSH_AUTH_SOCK): the only way evolve authenticates. */
  agent?: string;
  /** True only for a host key known_hosts trusts (known-hosts.ts). */
  hostVerifier: (key: Buffer) => boolean;
}

interface Login {
  client: Client;
  socket: Socket;
  ready: Promise<void>;
  /** Channels open on it, in flight or kept free by the agent. */
  channels: number;
  /** Channels carrying a request now: the login holds the process open while there are any. */
  busy: number;
  closed: boolean;
  idle: NodeJS.Timeout | null;
}

interface ChannelState {
  login: Login;
  busy: boolean;
}

export class SshDialAgent extends Agent {
  private readonly logins: Login[] = [];
  private readonly states = new WeakMap<Duplex, ChannelState>();

  constructor(
    /** Where and as whom it logs in (readable, for tests and messages). */
    readonly target: SshTarget,
    options: AgentOptions = {},
  ) {
    // Keep-alive: a channel serves the next request, so most requests start no remote process.
    super({ maxFreeSockets: MAX_CHANNELS / 2, ...options, keepAlive: true });
  }

  /** Logins open now (closed ones leave the list; for tests: requests share them). */
  get openLogins(): number {
    return this.logins.length;
  }

  override createConnection(_options: unknown, callback: (error: Error | null, stream?: Duplex) => void): undefined {
    this.openChannel().then(
      (stream) => callback(null, stream),
      (error: Error) => callback(error),
    );
    return undefined;
  }

  /** A request is done and its channel waits for the next (not a net.Socket: no TCP keep-alive to set). */
  override keepSocketAlive(socket: Duplex): boolean {
    const state = this.states.get(socket);
    if (state === undefined || state.login.closed) return false;
    this.setBusy(state, false);
    return true;
  }

  override reuseSocket(socket: Duplex, request: ClientRequest): void {
    // The base class takes off its listener for errors of free sockets, and refs the socket.
    super.reuseSocket(socket, request);
    const state = this.states.get(socket);
    if (state !== undefined) this.setBusy(state, true);
  }

  override destroy(): void {
    for (const login of this.logins) this.close(login);
    super.destroy();
  }

  private async openChannel(): Promise<Duplex> {
    const login = this.logins.find((l) => !l.closed && l.channels < MAX_CHANNELS) ?? this.login();
    const state: ChannelState = { login, busy: false };
    login.channels++;
    this.setBusy(state, true);
    try {
      await login.ready;
      const stream = await this.exec(login);
      // The agent refs a reused socket; a channel holds nothing open itself (its login's TCP
      // socket does, and setBusy refs that), so these are no-ops it can call.
      Object.assign(stream, { ref: () => stream, unref: () => stream });
      this.states.set(stream, state);
      stream.once("close", () => this.closeChannel(state));
      return stream;
    } catch (error) {
      this.closeChannel(state);
      throw error;
    }
  }

  /** `docker system dial-stdio` on the login, within the channel time limit. */
  private exec(login: Login): Promise<Duplex> {
    const limitMs = this.target.channelTimeoutMs ?? CHANNEL_TIMEOUT_MS;
    return new Promise<Duplex>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.close(login);
        reject(new Error(`ssh: ${this.target.host} did not open a channel within ${limitMs} ms`));
      }, limitMs);
      login.client.exec("docker system dial-stdio", (error, channel) => {
        clearTimeout(timer);
        // A channel opened after the limit is closed with its login (close() above).
        if (error) reject(error);
        else resolve(channel);
      });
    });
  }

  private closeChannel(state: ChannelState): void {
    this.setBusy(state, false);
    state.login.channels--;
  }

  private login(): Login {
    const socket = connectTcp(this.target.port, this.target.host);
    const client = new Client();
    const config: ConnectConfig = {
      sock: socket,
      host: this.target.host,
      port: this.target.port,
      readyTimeout: READY_TIMEOUT_MS,
      hostVerifier: this.target.hostVerifier,
      // As ssh does: no user in the URL means the local user's name.
      username: this.target.username ?? userInfo().username,
      ...(this.target.agent === undefined ? {} : { agent: this.target.agent }),
    };
    const login: Login = { client, socket, channels: 0, busy: 0, closed: false, idle: null, ready: Promise.resolve() };
    login.ready = new Promise<void>((resolve, reject) => {
      const fail = (error: Error): void => {
        this.close(login);
        reject(error);
      };
      client.once("ready", resolve);
      // `on`, not `once`: ssh2 and the socket may report more than one error, and an unheard one
      // would crash the process (a refused connection is reported by the socket itself).
      client.on("error", fail);
      socket.on("error", fail);
      client.once("close", () => this.close(login));
      try {
        client.connect(config);
      } catch (error) {
        fail(error as Error);
      }
    });
    // A failed login is reported through `ready`; this keeps an unawaited rejection quiet.
    login.ready.catch(() => undefined);
    this.logins.push(login);
    return login;
  }

  /** Holds the process open while a request is in flight on the login; idles it otherwise. */
  private setBusy(state: ChannelState, busy: boolean): void {
    if (state.busy === busy) return;
    state.busy = busy;
    const login = state.login;
    login.busy += busy ? 1 : -1;
    if (login.closed) return;
    if (login.busy > 0) {
      if (login.idle !== null) clearTimeout(login.idle);
      login.idle = null;
      login.socket.ref();
      return;
    }
    login.socket.unref();
    login.idle = setTimeout(() => this.close(login), IDLE_MS);
    login.idle.unref();
  }

  private close(login: Login): void {
    if (login.closed) return;
    login.closed = true;
    if (login.idle !== null) clearTimeout(login.idle);
    const at = this.logins.indexOf(login);
    if (at >= 0) this.logins.splice(at, 1);
    login.client.end();
    login.socket.destroy();
  }
}
