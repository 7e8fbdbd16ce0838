package org.sparknmt.model.infer;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The keys and values of one attention, projected and split into heads (Section 3.2.2), kept between
 * incremental decoding steps: each [n·h, t, d_k], the h heads of each of n sequences together.
 */
public record KeysValues(INDArray keys, INDArray values) {}
