package org.sparknmt.translate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.sparknmt.common.threads.WorkspaceThreads;

/**
 * One task's translation of a partition, shared by the text path ({@link TranslateJob}) and the
 * DataFrame path ({@code org.sparknmt.translate.table.TranslationTransformer}): items are read in blocks of
 * {@value #BLOCK}, their sources translated together ({@link SentenceTranslator} sorts a block by
 * length) on one of the model's {@link WorkspaceThreads}, and each item returned with its translation, in the
 * items' order. A null source gets a null translation without a search (a table's null cell; text lines
 * are never null).
 */
public final class TranslatedBlocks {
  /** Items held and sorted together in a task: bounds a task's memory whatever the partition size. */
  public static final int BLOCK = 10_000;

  private TranslatedBlocks() {}

  /**
   * @param source an item's text to translate, or null
   * @param result an item with its translation (null for a null source)
   * @param translator made on the first block only, so an empty partition does not restore the model
   * @param threads where each block is searched
   * @param targetTokens told the output subwords of each block
   */
  public static <T, R> Iterator<R> of(Iterator<T> items, Function<T, String> source, BiFunction<T, String, R> result,
      Supplier<SentenceTranslator> translator, WorkspaceThreads threads, LongConsumer targetTokens) {
    return of(items, source, result, translator,
        (sentences, kept) -> sentences.translate(kept.stream().map(source).toList()), threads, targetTokens);
  }

  /**
   * As {@link #of(Iterator, Function, BiFunction, Supplier, WorkspaceThreads, LongConsumer)}, with translations
   * of any kind: {@code search} gives those of a block's items whose source is not null, in their order.
   */
  public static <T, X, R> Iterator<R> of(Iterator<T> items, Function<T, String> source, BiFunction<T, X, R> result,
      Supplier<SentenceTranslator> translator, BiFunction<SentenceTranslator, List<T>, List<X>> search,
      WorkspaceThreads threads, LongConsumer targetTokens) {
    if (!items.hasNext()) {
      return Collections.emptyIterator();
    }
    SentenceTranslator sentences = translator.get();
    return new Iterator<>() {
      private Iterator<R> block = Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        if (!block.hasNext() && items.hasNext()) {
          block = translate(nextBlock(items), source, result, sentences, search, threads, targetTokens);
        }
        return block.hasNext();
      }

      @Override
      public R next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return block.next();
      }
    };
  }

  private static <T> List<T> nextBlock(Iterator<T> items) {
    List<T> block = new ArrayList<>(BLOCK);
    while (items.hasNext() && block.size() < BLOCK) {
      block.add(items.next());
    }
    return block;
  }

  private static <T, X, R> Iterator<R> translate(List<T> block, Function<T, String> source,
      BiFunction<T, X, R> result, SentenceTranslator translator, BiFunction<SentenceTranslator, List<T>, List<X>> search,
      WorkspaceThreads threads, LongConsumer targetTokens) {
    List<T> kept = new ArrayList<>(block.size());
    for (T item : block) {
      if (source.apply(item) != null) {
        kept.add(item);
      }
    }
    long before = translator.targetTokens();
    Iterator<X> translations = threads.run(() -> search.apply(translator, kept)).iterator();
    targetTokens.accept(translator.targetTokens() - before);
    List<R> out = new ArrayList<>(block.size());
    for (T item : block) {
      out.add(result.apply(item, source.apply(item) == null ? null : translations.next()));
    }
    return out.iterator();
  }
}
