// A BoundedProcess fixture: "spin" burns CPU until killed, "idle" awaits for ever, "now" answers at once.
process.on("message", (job) => {
  if (job.kind === "spin") for (;;) {}
  if (job.kind === "idle") return;
  process.send({ answer: job.kind });
});
process.send({ answer: "ready" });
