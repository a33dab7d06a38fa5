// Money's minor units: how many decimal digits a currency's amounts have (2 for EUR, 0 for JPY),
// as Intl knows it. Amounts are kept in minor units; v1 answers and people read major ones.
export function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // Not a well-formed code (a form being typed in): two, until the server says what is wrong.
    return 2;
  }
}

/** An amount in minor units (1250) in the currency's major units (12.5). */
export const toMajorUnits = (amount: number, currency: string) => amount / 10 ** fractionDigits(currency);
