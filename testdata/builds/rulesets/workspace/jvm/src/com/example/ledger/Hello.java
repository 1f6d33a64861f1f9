package com.example.ledger;

public class Hello {
  public static void main(String[] args) {
    System.out.println("ledger 1.4.2");
  }
}
