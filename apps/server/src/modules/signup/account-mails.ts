import type { Language } from '@atende/shared';
import type { Mail } from '../../platform/mail/mailer.js';

/**
 * The e-mails of sign-up and password reset, in the reader's language (the web app
 * sends it; Portuguese otherwise). Plain text: no link carries a credential.
 */
const TEXTS = {
  pt: {
    welcomeSubject: 'Bem-vindo ao Atende',
    welcome: (name: string, email: string, url: string) =>
      `Olá, ${name}!\n\nSua empresa foi cadastrada. Entre em ${url}/login com o e-mail ${email} e a senha que você escolheu.\n\nSeu período de teste termina em 3 dias.`,
    existsSubject: 'Tentativa de cadastro com seu e-mail',
    exists: (url: string) =>
      `Alguém tentou cadastrar uma empresa com este e-mail, que já tem uma conta no Atende.\n\nSe foi você, entre em ${url}/login ou recupere sua senha em ${url}/forgetpsw. Se não foi, ignore esta mensagem.`,
    codeSubject: 'Seu código para redefinir a senha',
    code: (code: string, minutes: number) =>
      `Seu código para redefinir a senha do Atende é: ${code}\n\nEle vale por ${minutes} minutos e pode ser usado uma vez. Se você não pediu, ignore esta mensagem: sua senha continua a mesma.`,
  },
  en: {
    welcomeSubject: 'Welcome to Atende',
    welcome: (name: string, email: string, url: string) =>
      `Hello, ${name}!\n\nYour company is registered. Sign in at ${url}/login with the e-mail ${email} and the password you chose.\n\nYour trial ends in 3 days.`,
    existsSubject: 'Sign-up attempt with your e-mail',
    exists: (url: string) =>
      `Someone tried to register a company with this e-mail, which already has an Atende account.\n\nIf it was you, sign in at ${url}/login or recover your password at ${url}/forgetpsw. If not, ignore this message.`,
    codeSubject: 'Your password reset code',
    code: (code: string, minutes: number) =>
      `Your Atende password reset code is: ${code}\n\nIt is valid for ${minutes} minutes and can be used once. If you did not ask for it, ignore this message: your password stays the same.`,
  },
  es: {
    welcomeSubject: 'Bienvenido a Atende',
    welcome: (name: string, email: string, url: string) =>
      `¡Hola, ${name}!\n\nSu empresa fue registrada. Ingrese en ${url}/login con el correo ${email} y la contraseña que eligió.\n\nSu período de prueba termina en 3 días.`,
    existsSubject: 'Intento de registro con su correo',
    exists: (url: string) =>
      `Alguien intentó registrar una empresa con este correo, que ya tiene una cuenta en Atende.\n\nSi fue usted, ingrese en ${url}/login o recupere su contraseña en ${url}/forgetpsw. Si no, ignore este mensaje.`,
    codeSubject: 'Su código para restablecer la contraseña',
    code: (code: string, minutes: number) =>
      `Su código para restablecer la contraseña de Atende es: ${code}\n\nVale por ${minutes} minutos y se puede usar una vez. Si no lo pidió, ignore este mensaje: su contraseña sigue igual.`,
  },
} as const;

function texts(language: Language | null | undefined) {
  return TEXTS[language ?? 'pt'];
}

export function welcomeMail(to: string, name: string, url: string, language?: Language | null): Mail {
  const t = texts(language);
  return { to, subject: t.welcomeSubject, text: t.welcome(name, to, url) };
}

export function accountExistsMail(to: string, url: string, language?: Language | null): Mail {
  const t = texts(language);
  return { to, subject: t.existsSubject, text: t.exists(url) };
}

export function resetCodeMail(to: string, code: string, minutes: number, language?: Language | null): Mail {
  const t = texts(language);
  return { to, subject: t.codeSubject, text: t.code(code, minutes) };
}
