/**
 * A forced removal of a container and its anonymous volume, tried again when Docker refuses it
 * for a moment. Under load dockerd sometimes answers a forced DELETE of a container that is
 * just exiting with "Could not kill running container …, cannot remove - Container … is not
 * running" (a 500, seen in a test run on 2026-12-02): taken as final, the container and its
 * workspace outlived the run. Gone already (404) is success; anything else is tried up to
 * four times in all, ~1.4 s at most, and then given up on (the session's sweep takes it).
 */
import type Docker from "dockerode";

const RETRY_DELAYS_MS = [100, 400, 900];

/** True when the container is gone (removed now or before); false when Docker kept refusing. */
export async function removeContainer(container: Pick<Docker.Container, "remove">, delays: readonly number[] = RETRY_DELAYS_MS): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      await container.remove({ force: true, v: true });
      return true;
    } catch (error) {
      if ((error as { statusCode?: number } | null)?.statusCode === 404) return true;
      const delay = delays[attempt];
      if (delay === undefined) return false;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
