/** System blocks by place: those at the top, and those of the conversation by the turn they precede. */
import type * as common from "./model";

/**
 * `blocks` split for a target that takes system messages in the conversation (chat, responses): the
 * top ones (every block without a place), and the late ones by their place (`SystemBlock.at`, the
 * number of turns before each; a place past the last turn is the end). A block keeps its order among
 * those of its place.
 */
export function placeSystem(
  blocks: readonly common.SystemBlock[],
  turns: number,
): { top: readonly common.SystemBlock[]; placed: ReadonlyMap<number, readonly common.SystemBlock[]> } {
  let top: common.SystemBlock[] | undefined;
  let placed: Map<number, common.SystemBlock[]> | undefined;
  for (const block of blocks) {
    if (block.at === undefined) {
      top?.push(block);
      continue;
    }
    top ??= blocks.slice(0, blocks.indexOf(block)).filter((earlier) => earlier.at === undefined);
    placed ??= new Map();
    const place = Math.min(block.at, turns);
    const list = placed.get(place);
    if (list === undefined) placed.set(place, [block]);
    else list.push(block);
  }
  return { top: top ?? blocks, placed: placed ?? EMPTY };
}

const EMPTY: ReadonlyMap<number, readonly common.SystemBlock[]> = new Map();
