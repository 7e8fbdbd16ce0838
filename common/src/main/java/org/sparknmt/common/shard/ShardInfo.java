package org.sparknmt.common.shard;

import java.io.Serializable;

/** What one shard holds, for the manifest: real tokens and padded cells give the padding ratio. */
public record ShardInfo(String file, long batches, long pairs, long realTokens, long paddedTokens, long bytes)
    implements Serializable {}
