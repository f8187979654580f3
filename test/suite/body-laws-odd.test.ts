import { protocols } from "../../src/index";
import { runProtocolSuite } from "../protocol-suite";

// Every protocol in `protocols` runs the shared suite: a new protocol is covered with no edit here. The
// body laws are the thorough tier's longest file (10,000 runs of each law and pair), so they are two
// files, the protocols at even and at odd places, which the test workers run side by side.
for (const protocol of protocols.filter((_, index) => index % 2 === 1))
  runProtocolSuite(protocol, ["body laws"]);
