/**
 * Validation messages are translation keys, so one schema serves the server (which
 * answers the English text) and the web (which shows the user's language).
 */
export const VALIDATION_MESSAGES = {
  'validation.required': 'Required',
  'validation.tooShort': 'Too Short!',
  'validation.tooLong': 'Too Long!',
  /** The tag modal's wording (spec part 2 §5: 'Mensagem muito curta'). */
  'validation.messageTooShort': 'Message too short',
  'validation.invalidEmail': 'Invalid email',
  'validation.invalidNumber': 'Must be a number',
  'validation.invalidValue': 'Invalid value',
  'validation.invalidTime': 'Use the format HH:mm',
  'validation.invalidDate': 'Invalid date',
  'validation.invalidText': 'Contains a character that is not allowed (NUL or an unpaired surrogate)',
  'validation.invalidTimeZone': 'Unknown time zone',
  'validation.passwordRule': 'At least 8 characters, with a digit, a lower-case and an upper-case letter',
  'validation.invalidPhone': 'Invalid phone number',
  /** A contact's WhatsApp number (phone-number.ts): what the normaliser found wrong. */
  'validation.invalidPhoneNumber': 'Not a valid phone number: check the area code, and write the country code (+) for a number outside Brazil',
  'validation.phoneTooShort': 'Too few digits for a phone number: include the area code',
  'validation.phoneTooLong': 'Too many digits for a phone number',
  'validation.phoneUnknownCountry': 'Unknown country code',
  'validation.invalidCode': 'The code has 6 digits',
  'validation.invalidZip': 'Invalid postal code',
  'validation.invalidCardNumber': 'Invalid card number',
  'validation.invalidExpiry': 'Invalid expiry date: use MM/YY',
  'validation.invalidCvv': 'Invalid security code (CVV)',
  'validation.invalidCpfCnpj': 'Invalid CPF or CNPJ',
  'validation.endBeforeStart': 'The end comes before the start',
  /** An agent's or a queue's most open tickets (auto-assignment). */
  'validation.capacityRange': 'Between 1 and 1000',
} as const;
export type ValidationMessageKey = keyof typeof VALIDATION_MESSAGES;

export function validationText(key: string): string {
  return (VALIDATION_MESSAGES as Record<string, string>)[key] ?? key;
}
