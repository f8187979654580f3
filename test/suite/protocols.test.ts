import { protocols } from "../../src/index";
import { runProtocolSuite } from "../protocol-suite";

// Every protocol in `protocols` runs the shared suite: a new protocol is covered with no edit here.
for (const protocol of protocols) runProtocolSuite(protocol, ["arbitraries", "fixtures"]);
