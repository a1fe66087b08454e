package io.cepheus.runtime.internal.cep;

import java.util.Arrays;

/**
 * Which versions of a rule set hold matching state for each key id of the shard. An event then goes to the versions
 * holding its key (to extend their partial matches) and to those whose start conditions it may meet
 * ({@link ConditionIndex}), not to every version: with a thousand rules, asking each of them cost more per event than
 * matching. A key none holds is freed.
 *
 * <p>Each key's holders are a linked list of nodes in pooled arrays, so that holding and letting go allocate
 * nothing once the pool has grown: a key costs one int when nothing holds it, and a node per version holding it. A
 * node also keeps the version's row of the key ({@link KeyRows}).
 *
 * <p>Owned by the shard's worker thread, like the rule set's buffer that holds it.
 */
final class KeyHolders {

    /** No node: the end of a list. Node 0 is never used, so that a fresh array of heads means "no holders". */
    private static final int NONE = 0;

    /** By key id: its first node, or NONE. */
    private int[] head = new int[64];
    private int[] nodeHolder = new int[64];
    private int[] nodeNext = new int[64];
    /** By node: the holder's row of the key ({@link KeyRows}). */
    private int[] nodeRow = new int[64];
    private int freeNodes = NONE;
    private int usedNodes = 1;

    /** The version {@code holder} made a state for the key, in its row {@code row}. */
    void held(int keyId, int holder, int row) {
        if (keyId >= head.length) {
            head = Arrays.copyOf(head, Math.max(keyId + 1, head.length * 2));
        }
        int node = freeNodes;
        if (node != NONE) {
            freeNodes = nodeNext[node];
        } else {
            node = usedNodes++;
            if (node == nodeHolder.length) {
                nodeHolder = Arrays.copyOf(nodeHolder, node * 2);
                nodeNext = Arrays.copyOf(nodeNext, node * 2);
                nodeRow = Arrays.copyOf(nodeRow, node * 2);
            }
        }
        nodeHolder[node] = holder;
        nodeRow[node] = row;
        nodeNext[node] = head[keyId];
        head[keyId] = node;
    }

    /** The version {@code holder} dropped its state of the key. */
    void released(int keyId, int holder) {
        int previous = NONE;
        for (int node = head[keyId]; node != NONE; previous = node, node = nodeNext[node]) {
            if (nodeHolder[node] == holder) {
                if (previous == NONE) {
                    head[keyId] = nodeNext[node];
                } else {
                    nodeNext[previous] = nodeNext[node];
                }
                nodeNext[node] = freeNodes;
                freeNodes = node;
                return;
            }
        }
        throw new IllegalStateException("version " + holder + " let go of key id " + keyId + ", which it did not hold");
    }

    /** @return the row in which {@code holder} keeps the key, or -1 if it does not hold it */
    int rowOf(int keyId, int holder) {
        if (keyId >= head.length) {
            return -1;
        }
        for (int node = head[keyId]; node != NONE; node = nodeNext[node]) {
            if (nodeHolder[node] == holder) {
                return nodeRow[node];
            }
        }
        return -1;
    }

    /** @return whether some version holds state for the key */
    boolean any(int keyId) {
        return keyId < head.length && head[keyId] != NONE;
    }

    /** @return the key's first holder node, or 0 for none; walk on with {@link #next} and read {@link #holder} */
    int first(int keyId) {
        return keyId < head.length ? head[keyId] : NONE;
    }

    /** @return the node after {@code node} in its key's list, or 0 */
    int next(int node) {
        return nodeNext[node];
    }

    /** @return the version a node stands for */
    int holder(int node) {
        return nodeHolder[node];
    }
}
