package org.sparknmt.prepare;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.sparknmt.common.data.Split;
import org.sparknmt.common.shard.LineId;
import org.sparknmt.prepare.clean.RejectReason;
import org.sparknmt.prepare.input.CorpusInput;

/**
 * A rejected pair as written to {@code RUN/data/rejects/}: one JSON object a line with the files
 * and the 1-based line number (for a table: the table, its two columns and the 1-based row), the
 * split, the reason and its detail, and the original text. A side that is not valid UTF-8 is
 * written as {@code source_base64} / {@code target_base64} instead, so nothing is lost.
 */
record RejectRecord(long lineId, Split split, RejectReason reason, String detail, byte[] source, byte[] target)
    implements Serializable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** @param parts the input parts, indexed by {@link LineId#part(long)} */
  String toJson(List<CorpusInput.Part> parts) {
    CorpusInput.Part part = parts.get(LineId.part(lineId));
    ObjectNode node = JSON.createObjectNode();
    if (part.table() != null) {
      node.put("table", part.table().uri());
      node.put("source_column", part.table().sourceColumn());
      node.put("target_column", part.table().targetColumn());
      node.put("row", LineId.line(lineId));
    } else {
      node.put("source_file", part.source());
      node.put("target_file", part.tsv() ? part.source() : part.target());
      node.put("line", LineId.line(lineId));
    }
    node.put("split", split.folder());
    node.put("reason", reason.label());
    node.put("detail", detail);
    side(node, "source", source);
    side(node, "target", target);
    try {
      return JSON.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void side(ObjectNode node, String name, byte[] bytes) {
    if (bytes == null) {
      node.putNull(name);
      return;
    }
    try {
      node.put(name, StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString());
    } catch (CharacterCodingException e) {
      node.put(name + "_base64", Base64.getEncoder().encodeToString(bytes));
    }
  }
}
